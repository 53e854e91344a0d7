% datetime time zones (IANA database through the date/tz library)
u = datetime(2014, 6, 28, 12, 0, 0, 'TimeZone', 'UTC')
u.TimeZone = 'America/New_York'
u.Hour
ny = datetime(2014, 3, 9, 1, 30, 0, 'TimeZone', 'America/New_York');
ny + hours(1)
ny + caldays(1)
ny.Format = 'dd-MMM-uuuu HH:mm:ss z'
datetime(2014, 6, 28, 12, 0, 0, 'TimeZone', 'Europe/Paris', 'Format', 'yyyy-MM-dd HH:mm xxx')
posixtime(datetime(1970, 1, 1, 1, 0, 0, 'TimeZone', 'Europe/London'))
t = datetime(2014, 11, 2, 0, 0, 0, 'TimeZone', 'America/New_York') + hours(0:3)'
diff(datetime(2014, 11, 1, 'TimeZone', 'America/New_York') + caldays(0:2))
t1 = datetime(2013,11,1,8,0,0);
t2 = datetime(2013,11,5,8,0,0);
t1.TimeZone = 'America/New_York';
t2.TimeZone = 'America/New_York';
t = t1:t2;
dt = diff(t)
t = t1:days(1):t2
% MATLAB documentation: Date and Time Arithmetic (time zones)
t1 = datetime(2014,3,8,0,0,0,'TimeZone','America/New_York')
t2 = t1 + days(0:2)
t3 = t1 + caldays(0:2)
