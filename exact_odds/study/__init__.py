"""Many dealt shoes: the study, its tasks, records and checks, worker pools, clusters, counts, edge sorting."""
