"""The coach's row: whether a person switched it on (an account's player or a guest's), on
the server's one declarative ``Base`` (``services.py`` imports it through the feature)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, String
from sqlalchemy.orm import Mapped, mapped_column

from ...infra.db import Base, now


class CoachSettingRow(Base):
    """A person's "Coach" toggle, as they last set it (no row: never set, off)."""

    __tablename__ = "coach_settings"

    player_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    on: Mapped[bool] = mapped_column(Boolean)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=now)
