// antd-mobile's global styles (its CSS variables) and touch handling, before ours: the components are
// imported one by one (antd-mobile/es/components/…, ADR 068), never from the package root.
import 'antd-mobile/es/global';
import './styles/global.css';
import { startApp } from './start/app';
import { startVisit } from './start/visit';

startVisit();
startApp();
