"""One shoe, exactly: the reference enumerator (the oracle), the single-shoe tables and their store."""
