"""Tests of the wrappers over the text env."""
