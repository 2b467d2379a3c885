"""Loading: the settings, the spec and the cases, read and validated before anything runs."""
