"""Simulation as a witness: our simulator and the checks of any simulator's log."""
