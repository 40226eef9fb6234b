"""Batch experiments: grids of cells, measures, the results store, backends."""
