"""Tests of `partita.serialization`'s modules, one test module per source module."""
