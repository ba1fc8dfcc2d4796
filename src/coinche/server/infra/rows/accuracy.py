"""How well each seat played each finished deal (``features/accuracy.py``): the counts the
accuracy is made of, one row per seat and deal, for a person's decisions or a computer's."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Float, Index, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from ..db import Base, now


class DealAccuracyRow(Base):
    """A seat's accuracy over one finished deal (``bots.accuracy.Accuracy``'s counts): the
    person whose own decisions they are (``player_id``), or the computer's level
    (``level``) when a computer held the seat."""

    __tablename__ = "deal_accuracy"
    __table_args__ = (
        Index("ix_deal_accuracy_player", "player_id", "profile", "finished_at"),
        Index("ix_deal_accuracy_level", "level", "profile"),
    )

    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    deal: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    profile: Mapped[str] = mapped_column(String(16))
    finished_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
    cards: Mapped[int] = mapped_column(Integer)
    cards_kept: Mapped[int] = mapped_column(Integer)
    card_loss: Mapped[int] = mapped_column(Integer)
    calls: Mapped[int] = mapped_column(Integer)
    calls_kept: Mapped[int] = mapped_column(Integer)
    call_loss: Mapped[float] = mapped_column(Float)
