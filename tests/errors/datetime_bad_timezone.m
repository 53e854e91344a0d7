t = datetime(2014, 6, 28, 'TimeZone', 'Mars/Olympus_Mons')
