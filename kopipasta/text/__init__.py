"""Strict text hunks (PROTOCOL.md §8): the matcher and the application of hunks to a file."""
