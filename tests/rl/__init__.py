"""Reinforcement-learning tests (need the rl extra)."""
