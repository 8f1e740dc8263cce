"""Play-by-email adjudicator for GMT's Sekigahara: The Unification of Japan."""

__version__ = "0.2.0"
