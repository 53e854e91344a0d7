% groupsummary, varfun, rowfun (the groupsummary documentation example, with the health
% status as text).
HealthStatus = {'Poor'; 'Good'; 'Fair'; 'Fair'; 'Poor'; 'Excellent'; 'Good'; 'Excellent'};
Age = [38; 43; 38; 40; 49; 51; 52; 35];
Height = [71; 68; 64; 67; 64; 62; 65; 55];
Weight = [176; 153; 131; 133; 119; 120; 140; 129];
T = table(HealthStatus, Age, Height, Weight)
G = groupsummary(T, "HealthStatus")
G = groupsummary(T, "HealthStatus", "mean")
G = groupsummary(T, "HealthStatus", "median", "Height")
G = groupsummary(T, "HealthStatus", {'min', 'max'}, "Age")
G = groupsummary(T, "HealthStatus", @(x) sum(x > 60), "Height")
V = varfun(@mean, T, 'InputVariables', {'Age', 'Height'})
V = varfun(@max, T, 'GroupingVariables', 'HealthStatus', 'InputVariables', 'Weight')
u = varfun(@mean, T(:, 2:4), 'OutputFormat', 'uniform')
R = rowfun(@(a, h) a + h, T, 'InputVariables', {'Age', 'Height'}, 'OutputVariableNames', 'Sum');
R(1:3, :)
r = rowfun(@(w, h) w / h, T, 'InputVariables', {'Weight', 'Height'}, 'OutputFormat', 'uniform');
disp(size(r))
