"""game-harness: grade interactive console programs turn by turn against a reference."""
