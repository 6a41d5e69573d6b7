// Deep import: the package root pulls antd-mobile's global module and its animation library.
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';
import { createRoot, type Root } from 'react-dom/client';

type Container = (Element | DocumentFragment) & { __admRoot?: Root };

/**
 * antd-mobile 5 renders Toast/Dialog with the React 18 API by default; React 19 needs a createRoot
 * renderer (https://mobile.ant.design/guide/v5-for-19).
 */
export function setupAntdMobile(): void {
  unstableSetRender((node, container: Container) => {
    container.__admRoot ??= createRoot(container);
    const root = container.__admRoot;
    root.render(node);
    return async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      root.unmount();
      container.__admRoot = undefined;
    };
  });
}
