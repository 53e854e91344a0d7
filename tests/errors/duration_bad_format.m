d = hours(1);
d.Format = 'xyz'
