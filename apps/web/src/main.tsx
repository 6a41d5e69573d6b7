import './styles/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { STORAGE_KEYS } from './config/constants';
import { setupAntdMobile } from './lib/antd-mobile';
import { getAdChannelCode } from './lib/channel';
import { storage } from './lib/storage';

// Spec §9: the legacy USER_INFO cache is dropped on every start.
storage.remove(STORAGE_KEYS.userInfo);
// Remember the channel code of the ad link the visitor arrived with.
getAdChannelCode();
setupAntdMobile();

const container = document.getElementById('root');
if (!container) throw new Error('#root missing in index.html');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
