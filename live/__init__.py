"""Live mode: "Predict, then try" for a whole lecture hall (projector, phones, one reveal)."""
