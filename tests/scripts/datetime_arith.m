% datetime, duration and calendarDuration arithmetic, comparison and sorting
t1 = datetime(2014, 6, 28, 8, 0, 0);
t2 = datetime(2014, 7, 1, 20, 30, 15);
dt = t2 - t1
t1 + hours(36)
t1 - minutes(90)
t1 + 2
t1 + caldays(3)
datetime(2014, 1, 31) + calmonths(1:3)
datetime(2016, 2, 29) + calyears(1)
t = datetime(2014, 6, 28) + calweeks(0:2)
d = 0:seconds(30):minutes(3)
t1 < t2
t1 == '28-Jun-2014 08:00:00'
[t2 t1] > t1
x = [datetime(2015,1,1) datetime(2013,5,5) datetime(2014,3,3)];
[s, i] = sort(x)
min(x)
max(x)
diff(x)
issorted(sort(x))
h = hours(1.5)
h * 2
h / 3
h / minutes(10)
-h
abs(-h)
sum([hours(1) minutes(30)])
m = minutes(90); m.Format = 'hh:mm'
days(1)
days(2.5)
years(1)
years(2)
seconds(0.25)
milliseconds(1500)
hours(hours(2) + minutes(15))
c = calmonths(14) + caldays(3)
calyears(1) + calmonths(2)
2 * calweeks(1)
caldays(0)
calendarDuration(1, 2, 3)
calendarDuration(0, 0, 1, 12, 30, 0)
duration(1, 30, 45)
duration([1;2], 30, [45;10])
duration(0, 0, 61.25, 'Format', 'hh:mm:ss.SS')
duration('01:02:03')
hours(1) < minutes(90)
t1:t1 + 2
% sequences (MATLAB documentation: Generate Sequence of Dates and Time)
t1 = datetime(2013,11,1,8,0,0);
t2 = datetime(2013,11,5,8,0,0);
t = t1:2:t2
t = t1:hours(18):t2
t = t1:caldays(2):t2
% MATLAB documentation: Date and Time Arithmetic
t1 = datetime(2014,1,31);
t2 = t1 + calmonths(1:4)
dt = caldiff(t2,'days')
t2 = t1 + calyears(0:4)
dt = caldiff(t2,'days')
t2 = datetime(2014,1,31) + calmonths(3) + caldays(30)
t1 = datetime(2019,4,12);
t2 = datetime(2019,4,14,2,46,21) + caldays(0:2);
dt = t2 - t1
dt.Format = 'd'
dt2 = 1.2*dt
