"""Suite tools: expected transcripts regenerated, sample submissions checked, the case suite audited."""
