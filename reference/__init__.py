"""Reference implementations of the course games, one module per game.

Each module runs on its own (`python -m reference.<game>`), prints byte for byte what
the handout's program prints, and keeps its rules importable for tests and strategies.
"""
