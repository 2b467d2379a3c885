"""Reporting: the typed results rendered for people and tools (HTML, JSON, JUnit, Gradescope, the terminal)."""
