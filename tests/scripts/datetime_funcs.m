% datetime functions: components, between, dateshift, conversions, indexing, time zones
t = datetime(2014, 6, 28, 18, 45, 30.5);
[year(t) quarter(t) month(t) day(t) hour(t) minute(t) second(t)]
month(t, 'name')
day(t, 'name')
day(t, 'dayofyear')
weekday(t)
[y, m, d] = ymd(t)
timeofday(t)
datenum(t)
datestr(t)
posixtime(datetime(2000, 1, 1))
juliandate(datetime(2000, 1, 1, 12, 0, 0))
convertTo(datetime(2014, 6, 28), 'excel')
yyyymmdd(datetime(2014, 6, 28))
char(datetime(2014, 6, 28))
string([datetime(2014, 6, 28) NaT])
cellstr(datetime(2014, 6, 28, 'Format', 'yyyy-MM-dd'))
char(t, 'HH:mm')
b = between(datetime(2014, 1, 31), datetime(2015, 3, 2, 6, 0, 0))
between(datetime(2014, 5, 1), datetime(2014, 8, 15), 'days')
between(datetime(2014, 5, 1), datetime(2014, 8, 15), {'months', 'days'})
dateshift(t, 'start', 'month')
dateshift(t, 'end', 'month')
dateshift(t, 'start', 'day', 'next')
dateshift(t, 'start', 'week')
dateshift(t, 'start', 'hour')
% indexing, assignment, growth, deletion, concatenation
x = datetime(2020, 1, 1:4);
x(2)
x(end)
x([1 3]) = datetime(1999, 12, 31);
x
x(6) = datetime(2021, 1, 1)
x(5) = []
x(2) = '2000-02-02'
y = [x(1); datetime(2022, 5, 5)]
z = [x(1), '01-Jan-2001']
numel(z)
isempty(NaT(0, 0))
e = datetime(2014, 6, 28) + hours(0:2)';
e(2:3)
