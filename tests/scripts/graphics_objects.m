% Graphics object model: handles, get/set, dot properties, gcf/gca, hold, subplot, close.
% Expected values are MATLAB's documented defaults (colour order, subplot positions).
f = figure;
disp(class(f))
disp(f.Number)
f.Color = 'w';
disp(f.Color)
h = plot(1:10, (1:10).^2);
disp(class(h))
h.LineWidth = 2;
disp(get(h, 'LineWidth'))
fprintf('%.4f %.4f %.4f\n', get(h, 'Color'))
disp(h.LineStyle)
set(gca, 'XLim', [0 1]);
disp(xlim)
disp(get(gca, 'XLimMode'))
ax = gca;
disp(ax.YLim)
hold on
h2 = plot(1:10, 1:10, 'LineWidth', 3);
fprintf('%.4f %.4f %.4f\n', h2.Color)
disp(h2.LineWidth)
disp(ishold)
hold off
disp(numel(get(gca, 'Children')))
plot(1:3, 'r--o');
c = get(gca, 'Children');
disp(c.LineStyle)
disp(c.Marker)
disp(c.Color)
disp(numel(c))
subplot(2, 1, 1); plot(1:5); title('top');
ax1 = gca;
fprintf('%.4f ', ax1.Position); fprintf('\n');
subplot(2, 1, 2);
fprintf('%.4f ', get(gca, 'Position')); fprintf('\n');
t = ax1.Title;
disp(t.String)
ax1.Title.String = 'renamed';
disp(ax1.Title.String)
xlabel(ax1, 'time');
disp(get(get(ax1, 'XLabel'), 'String'))
figure(5);
disp(get(gcf, 'Number'))
g = figure;
disp(g.Number)
close(5)
disp(ishandle(5))
close all
disp(isempty(get(groot, 'Children')))
