t = datetime('not a date')
