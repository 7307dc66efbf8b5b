"""Single-shoe questions, each answered with data: edges, removal, closed forms, known cards, sessions, roads."""
