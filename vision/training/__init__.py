"""Training the two small networks of :mod:`vision.reader` (needs torch; never imported at run time)."""
