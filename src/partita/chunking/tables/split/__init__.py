"""Splitting an oversized table into fragments that fit the window (the second stage)."""
