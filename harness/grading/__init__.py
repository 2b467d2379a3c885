"""Grading: a submission's cases run side by side and scored against the rubric."""
