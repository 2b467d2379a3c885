"""Classes: a class's submissions found, graded side by side (locally or on Dask), resumed and shown."""
