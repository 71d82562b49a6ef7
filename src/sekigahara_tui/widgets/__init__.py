"""The game screen's panels. Each renders a PlayerView; none keeps game state."""
