import './styles.css';
import { unstableSetRender } from 'antd';
import { StrictMode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { App } from './app';

type Container = (Element | DocumentFragment) & { __antdRoot?: Root };

// antd 5 renders wave effects and static popups with the React 18 API; React 19 needs createRoot.
// https://ant.design/docs/react/v5-for-19
unstableSetRender((node, container: Container) => {
  container.__antdRoot ??= createRoot(container);
  const root = container.__antdRoot;
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    container.__antdRoot = undefined;
  };
});

const container = document.getElementById('root');
if (!container) throw new Error('#root missing in index.html');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
