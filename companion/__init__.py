"""Catan companion: the rules core, the game record, dice sources, announcer, tournaments and the tablet app."""

__version__ = "0.1.0"
