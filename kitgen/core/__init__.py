"""What every part of kitgen stands on: the options of a kit and of the commands (declared
once), the manifest, verifying a protocol and the caches that keep its reports and
figures, writing into an output folder safely, and small helpers (units, colours,
words, durations, templates). It imports no other kitgen subpackage; everything else may
import it.
"""
