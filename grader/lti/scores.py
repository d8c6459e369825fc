"""Assignment and Grade Services score passback (to be built)."""
