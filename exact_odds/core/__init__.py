"""The vocabulary: integer ways, ranks and shoes, the coup and its code, the drawing rule, verdicts."""
