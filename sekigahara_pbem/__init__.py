"""Play-by-email adjudicator for GMT's Sekigahara: The Unification of Japan."""

__version__ = "0.1.0"
