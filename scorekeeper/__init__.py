"""Scorekeeper: a phone-first score keeper for card games played with a real deck."""
