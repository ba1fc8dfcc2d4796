"""The seeds' worked scoring examples as calculator input, shared by the calculator page's
server and browser tests (issue 8: "every worked example of the seeds comes out right").

Each expected score is the seed's own figure (or RULES.md's reading where the seed leaves a
value open, e.g. the card points of "100 trèfle coinché, réussi"), never the engine's
output. ``EXAMPLES`` holds the seeds' examples; ``MORE`` a few cases of RULES.md section 5
that use the inputs the seeds' examples leave untouched (melds, options, all trump).
"""

from __future__ import annotations

from dataclasses import dataclass, field

CLASSIC = "seeds/000_a7c1ded6d8e4673a.txt"
FEDERATION = "seeds/001_5962d0f7a9ecef0f.txt"
HOUSE = "seeds/003_5bdd1afb0bb29d56.txt"
ONLINE = "seeds/004_fa9e2a8f0f63451e.txt"


@dataclass(frozen=True)
class Example:
    """One deal typed into the calculator and the score it must give."""

    id: str
    source: str
    """The seed (or RULES.md section) the figures come from."""
    says: str
    """What the source says, in its words."""
    profile: str
    bid: str
    """``80``..``180``, ``capot`` or ``generale``, as the form's contract value."""
    trump: str
    points: int
    made: bool
    taker: int
    defense: int
    double: str = "none"
    sweep: str = "none"
    taker_belote: int = 0
    defense_belote: int = 0
    taker_melds: int = 0
    defense_melds: int = 0
    options: dict[str, str] = field(default_factory=dict)
    """Form values of the rules (``target``, ``rounding``, ``sa_ta``...)."""

    def fields(self) -> dict[str, str]:
        """The form's fields, as a browser sends them."""
        values = {
            "profile": self.profile,
            **self.options,
            "bid": self.bid,
            "trump": self.trump,
            "double": self.double,
            "points": str(self.points),
            "sweep": self.sweep,
            "taker_belote": str(self.taker_belote),
            "defense_belote": str(self.defense_belote),
        }
        if self.taker_melds or self.defense_melds:
            values |= {"taker_melds": str(self.taker_melds), "defense_melds": str(self.defense_melds)}
        return values


EXAMPLES: list[Example] = [
    # --- online (seed 004, "Exemples chiffrés") ---
    Example("online-100H-112", ONLINE, "« 100 cœur », 112 points faits : réussi. 212, la défense 50.",
            "online", "100", "H", 112, True, 212, 50),
    Example("online-120S-110", ONLINE, "« 120 pique », 110 points faits : chuté. La défense marque 280.",
            "online", "120", "S", 110, False, 0, 280),
    Example("online-100C-coinche", ONLINE, "« 100 trèfle » coinché, réussi : 160 + 200 = 360.",
            "online", "100", "C", 120, True, 360, 0, double="coinche"),
    Example("online-90D-surcoinche", ONLINE, "« 90 carreau » surcoinché, chuté : 160 + 360 = 520.",
            "online", "90", "D", 50, False, 0, 520, double="surcoinche"),
    Example("online-110H-sweep", ONLINE, "« 110 cœur », et l'attaque fait tous les plis : 110 + 250 = 360.",
            "online", "110", "H", 162, True, 360, 0, sweep="taker"),
    # --- house (seed 003, "Exemples" and the scoring table) ---
    Example("house-100-116-belote", HOUSE, "J'annonce 100, je fais 116 avec la belote : 220 ; l'adversaire 66 : 60.",
            "house", "100", "H", 96, True, 220, 60, taker_belote=1),
    Example("house-110-108-belote", HOUSE, "J'annonce 110 je fais 108 avec la belote : je chute, 270, je marque 20.",
            "house", "110", "S", 88, False, 20, 270, taker_belote=1),
    Example("house-120-126", HOUSE, "Annonce à 120, l'attaque fait 126 : 130 points, et 30 pour la défense (36).",
            "house", "120", "D", 126, True, 250, 30),
    Example("house-80-81-81", HOUSE, "Enchères arrêtées à 80 : s'il y a 81 à 81, l'équipe qui a pris perd la mène.",
            "house", "80", "C", 81, False, 0, 240),
    Example("house-100-82-belote", HOUSE, "À partir de 82 points faits, la belote peut permettre un contrat à 100.",
            "house", "100", "H", 82, True, 200, 80, taker_belote=1),
    Example("house-capot-made", HOUSE, "Capot annoncé, fait : 500 points.",
            "house", "capot", "S", 162, True, 500, 0, sweep="taker"),
    Example("house-generale-failed", HOUSE, "Générale annoncée, chutée : 460 points (300 + 160).",
            "house", "generale", "H", 162, False, 0, 460, sweep="taker"),
    Example("house-coinche", HOUSE, "Coinche : points annoncés x 2 + 160.",
            "house", "100", "H", 120, True, 360, 0, double="coinche"),
    Example("house-surcoinche-2010", HOUSE, "Surcoinche : points annoncés x 3 + 160 (parties en 2000).",
            "house", "100", "H", 120, True, 460, 0, double="surcoinche", options={"target": "2010"}),
    Example("house-surcoinche-3010", HOUSE, "Surcoinche : points annoncés x 4 + 160 (parties en 3000).",
            "house", "100", "H", 120, True, 560, 0, double="surcoinche", options={"target": "3010"}),
    # --- federation (seed 001, "Check the promise before rounding" and the rounding rule) ---
    Example("federation-90H-89", FEDERATION, "Bids 90 hearts and finishes with 89: fails; defenders 250, bidders 0.",
            "federation", "90", "H", 89, False, 0, 250),
    Example("federation-rounding", FEDERATION, "Round awards to the nearest 10: 85 becomes 90, 84 becomes 80.",
            "federation", "80", "S", 85, True, 170, 80),
    # --- classic (seed 000, "La réalisation du contrat", "La marque") ---
    Example("classic-generale-failed", CLASSIC, "660 pour une générale chutée.",
            "classic", "generale", "S", 100, False, 0, 660),
    Example("classic-80-makes-80", CLASSIC, "À 80 annoncé, faire 80 laisse 82 à la défense : pas gagné.",
            "classic", "80", "H", 80, False, 0, 240),
    Example("classic-defense-belote", CLASSIC,
            "La défense peut détenir une belote, dont les 20 points la font passer devant.",
            "classic", "90", "C", 91, False, 0, 270, defense_belote=1),
    Example("classic-defense-sweep", CLASSIC, "Si la défense fait en outre capot, le forfait passe de 160 à 250.",
            "classic", "80", "D", 0, False, 0, 330, sweep="defense"),
    Example("classic-capot-made", CLASSIC, "Capot réalisé : 250 points, un forfait (RULES.md I-6: 250 + 250).",
            "classic", "capot", "H", 162, True, 500, 0, sweep="taker"),
]  # fmt: skip

MORE: list[Example] = [
    Example("classic-melds", "RULES.md 5.1", "Made: the team that takes the melds adds them.",
            "classic", "80", "H", 100, True, 200, 62, taker_melds=20),
    Example("classic-TA-two-belotes", "RULES.md 1", "Up to four belotes in TA; they count toward making.",
            "classic", "100", "TA", 90, True, 230, 72, taker_belote=2),
    Example("federation-melds-count", "RULES.md 5.2", "Melds count in the totals that decide the contract.",
            "federation", "100", "H", 90, True, 210, 70, taker_melds=20),
    Example("online-sa-option", "RULES.md 5.4, 5.5", "SA/TA as an option of the online rules.",
            "online", "100", "SA", 112, True, 212, 50, options={"sa_ta": "yes"}),
    Example("online-rounding-option", "RULES.md 5.5", "rounding = nearest10 over the online rules.",
            "online", "100", "H", 112, True, 210, 50, options={"rounding": "nearest10"}),
]  # fmt: skip

ALL = EXAMPLES + MORE
