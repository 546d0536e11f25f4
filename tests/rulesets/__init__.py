"""Rulesets that exist for the tests only; tests/conftest.py registers every folder here."""
