"""Dealing: cards as codes and the procedure (:mod:`~exact_odds.dealing.procedure`), seeds and shuffles
(:mod:`~exact_odds.dealing.shuffle`), the dealers (:mod:`~exact_odds.dealing.dealer`); import from the modules."""
