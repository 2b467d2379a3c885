"""Building: a submission taken in (folders, archives) and compiled, builds reused by content."""
