"""LTI 1.3 Advantage: launches from an LMS, deep linking, scores and rosters back to it."""
