"""The pytest plugin: a game's cases as pytest items, graded by the same code as `harness grade`."""
