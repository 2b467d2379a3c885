"""The self-check service: students upload, the server grades, public cases shown, hidden ones counted."""
