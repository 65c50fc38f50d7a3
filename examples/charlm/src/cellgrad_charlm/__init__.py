"""cellgrad-charlm: a character-level language model trained on Python's own stdlib source."""

__version__ = "0.1.0"
