% Renders one 400x300 figure per plot type to PNG files in the folder named by the environment
% variable GFX_OUT (the golden-image test compares them with golden/*.png).
out = getenv('GFX_OUT');
if isempty(out), out = '.'; end
W = [100 100 400 300];
save_fig = @(name) print(gcf, '-dpng', '-r96', fullfile(out, [name '.png']));

figure('Position', W); x = linspace(0, 2*pi, 100);
plot(x, sin(x), x, cos(x), 'r--'); title('plot'); xlabel('x'); ylabel('y');
legend('sin', 'cos'); grid on; save_fig('plot'); close

figure('Position', W); plot(magic(4)); title('plot matrix'); save_fig('plot_matrix'); close

figure('Position', W); plot(1:10, (1:10).^2, 'ks-', 'MarkerFaceColor', 'y', 'LineWidth', 1.5);
axis([0 11 0 110]); title('line spec'); save_fig('linespec'); close

figure('Position', W); t = linspace(0, 10*pi, 300);
plot3(sin(t), cos(t), t); title('plot3'); xlabel('x'); ylabel('y'); zlabel('z');
save_fig('plot3'); close

figure('Position', W); rng(1); scatter(rand(1, 50), rand(1, 50), 30, 1:50, 'filled');
colorbar; title('scatter'); save_fig('scatter'); close

figure('Position', W); bar([3 5 2; 4 1 6; 2 2 3]); title('bar grouped');
legend('a', 'b', 'c', 'Location', 'northwest'); save_fig('bar'); close

figure('Position', W); barh([1 3 2 5]); title('barh'); save_fig('barh'); close

figure('Position', W); bar([1 2; 3 4; 2 1], 'stacked'); title('bar stacked');
save_fig('bar_stacked'); close

figure('Position', W); data = [1 2 2 3 3 3 4 4 4 4 5 5 5 6 6 7]; histogram(data);
title('histogram'); save_fig('histogram'); close

figure('Position', W); hist([1 2 2 3 3 3 4 4 5], 5); title('hist'); save_fig('hist'); close

figure('Position', W); stairs(1:8, [1 3 2 5 4 6 5 7]); title('stairs'); save_fig('stairs'); close

figure('Position', W); stem(0:10, exp(-(0:10)/4), 'filled'); title('stem'); save_fig('stem'); close

figure('Position', W); errorbar(1:6, [2 4 3 5 4 6], [0.5 0.3 0.6 0.4 0.5 0.3], 'o-');
title('errorbar'); xlim([0 7]); save_fig('errorbar'); close

figure('Position', W); area([1 3 2 4; 2 2 3 1]'); title('area'); save_fig('area'); close

figure('Position', W); fill([0 1 0.5], [0 0 1], 'g'); hold on
patch([1 2 2 1], [0 0 1 1], [0.8 0.2 0.2]); hold off; axis equal; title('fill and patch');
save_fig('fill'); close

figure('Position', W); x = 10.^linspace(0, 3, 50); semilogx(x, log10(x)); grid on;
title('semilogx'); save_fig('semilogx'); close

figure('Position', W); semilogy(1:10, exp(1:10)); title('semilogy'); save_fig('semilogy'); close

figure('Position', W); lx = 10.^linspace(-1, 2, 20); loglog(lx, lx.^2, 'o-');
title('loglog'); save_fig('loglog'); close

[X, Y] = meshgrid(linspace(-2, 2, 40));
Z = X .* exp(-X.^2 - Y.^2);
figure('Position', W); contour(X, Y, Z); title('contour'); save_fig('contour'); close
figure('Position', W); contourf(X, Y, Z, 8); colorbar; title('contourf'); save_fig('contourf'); close

figure('Position', W); imagesc(magic(8)); colorbar; title('imagesc'); save_fig('imagesc'); close
figure('Position', W); image(magic(6) * 4); colormap(jet(64)); title('image jet');
save_fig('image'); close
figure('Position', W); imshow(kron(eye(4), ones(8)) * 0.8); save_fig('imshow'); close

[X, Y] = meshgrid(linspace(-2, 2, 25));
Z = X .* exp(-X.^2 - Y.^2);
figure('Position', W); surf(X, Y, Z); title('surf'); save_fig('surf'); close
figure('Position', W); mesh(X, Y, Z); title('mesh'); view(30, 40); save_fig('mesh'); close
figure('Position', W); pcolor(magic(6)); colormap(hot); title('pcolor'); save_fig('pcolor'); close

figure('Position', W); [X, Y] = meshgrid(-2:0.5:2);
quiver(X, Y, -Y, X); title('quiver'); axis equal; save_fig('quiver'); close

figure('Position', W); th = linspace(0, 2*pi, 200);
polarplot(th, 1 + 0.5*cos(3*th)); title('polarplot'); save_fig('polarplot'); close

figure('Position', W);
subplot(2, 2, 1); plot(1:5); title('one');
subplot(2, 2, 2); bar(1:3); title('two');
subplot(2, 2, [3 4]); plot(rand(1, 20) * 0 + (1:20)); title('three'); save_fig('subplot'); close

figure('Position', W); tiledlayout(1, 2); nexttile; plot(1:3); title('A');
nexttile; scatter(1:3, [2 1 3]); title('B'); save_fig('tiledlayout'); close

figure('Position', W); plot(1:10); text(2, 8, '\alpha^2 + \beta_1'); box off;
xticks([1 5 10]); xticklabels({'one', 'five', 'ten'}); ylim([0 12]);
title('text, ticks and \omega'); save_fig('text_ticks'); close
