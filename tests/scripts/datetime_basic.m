% datetime construction, display and properties (MATLAB documentation examples)
Y = [2014;2013;2012];
M = 01;
D = [31;30;31];
t = datetime(Y,M,D)
t.Format = 'eeee, MMMM d, y'
DateStrings = {'2014-05-26';'2014-08-03'};
t = datetime(DateStrings,'InputFormat','yyyy-MM-dd')
t = datetime(2014,6,28,6,30,45)
t.Year
t.Month
t.Second
t.Format
t2 = datetime('2016-07-29 10:05:24', 'Format', 'yyyy-MM-dd HH:mm:ss.SSS')
t3 = datetime([2016 7 29; 2017 1 2])
class(t3)
size(t3)
isdatetime(t3)
isdatetime(1)
n = NaT(1, 2)
isnat([t NaT])
d = datetime(2014, 13, 1)
d = datetime(2014, 2, 30)
x = datetime(738000, 'ConvertFrom', 'datenum')
x = datetime(1.4e9, 'ConvertFrom', 'posixtime')
x = datetime(20140628, 'ConvertFrom', 'yyyymmdd')
x = datetime(41818, 'ConvertFrom', 'excel')
x = datetime(2456836.5, 'ConvertFrom', 'juliandate')
s.when = datetime(2020, 2, 29)
c = {datetime(2014, 6, 28), hours(2)}
