"""A student's own counterexample: a fresh, short game where their program and the reference part ways."""
