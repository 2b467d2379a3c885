"""Reports of a graded submission: terminal summary, JSON, HTML (more formats plug in here)."""
