"""Dealing: cards as codes (:mod:`~exact_odds.dealing.cards`), the procedure (burn, cut card, last coup),
seeds and shuffles, and the dealers (:mod:`~exact_odds.dealing.dealer`); import from the modules."""
