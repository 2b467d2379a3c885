"""Judging: a program's transcript against the reference's, turn by turn, random starts settled."""
