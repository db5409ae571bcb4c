"""Tournaments: a config → a schedule of matches → matches played by a backend → the store → ratings.

The data flows one way: ``config`` reads and checks the TOML file; ``schedule`` turns
it into a list of matches (a pure function of the config and its seed); ``backends`` play match
jobs and yield records as they finish; ``store`` keeps every finished match in one SQLite file;
``ratings`` derives TrueSkill ratings from the store; ``run`` ties them together and resumes.
"""
