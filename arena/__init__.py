"""arena: run bots that play table games against each other, fairly and safely."""

__version__ = "0.1.0"
