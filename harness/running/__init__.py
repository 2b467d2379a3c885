"""Running: one program driven through a pty, confined by the sandbox and its limits, and timed."""
