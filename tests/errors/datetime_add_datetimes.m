t = datetime(2014, 6, 28) + datetime(2014, 6, 29)
